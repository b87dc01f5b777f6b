/** The most rows a catalog list (brands, categories, makes, models, vehicles of a model) answers. */
export const catalogListCap = 1000;
