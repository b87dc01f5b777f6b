import type { MutationResolvers, PartResolvers, QueryResolvers, Resolvers } from './generated';

/** The catalog's thin adapters (issue 33): each says which service of api/src/catalog does the work. */
export const catalogQueries: Pick<
  QueryResolvers,
  | 'brands'
  | 'categories'
  | 'makes'
  | 'models'
  | 'vehicles'
  | 'partsByNumber'
  | 'catalog'
  | 'category'
  | 'brand'
  | 'vehicle'
  | 'vehicleBySlugs'
> = {
  brands: (_, __, { services }) => services.catalog.brands(),
  categories: (_, __, { services }) => services.catalog.categories(),
  makes: (_, __, { services }) => services.catalog.makes(),
  models: (_, { makeId }, { services }) => services.catalog.models(makeId),
  vehicles: (_, { modelId, year }, { services }) => services.catalog.vehicles(modelId, year),
  partsByNumber: (_, { number }, { services }) => services.catalog.partsByNumber(number),
  catalog: (_, { filter, offset, limit }, { services }) => services.catalog.catalog(filter, { offset, limit }),
  category: (_, { slug }, { services }) => services.catalog.categoryBySlug(slug),
  brand: (_, { slug }, { services }) => services.catalog.brandBySlug(slug),
  vehicle: (_, { id }, { services }) => services.catalog.vehicleOrNull(id),
  vehicleBySlugs: (_, args, { services }) => services.catalog.vehicleBySlugs(args),
};

export const catalogPartFields: Pick<
  PartResolvers,
  'brand' | 'category' | 'numbers' | 'replacedBy' | 'fits' | 'fitment'
> = {
  brand: (part, _, { services }) => services.catalog.brand(part.brandId),
  category: (part, _, { services }) => services.catalog.category(part.categoryId),
  numbers: (part, _, { services }) => services.catalog.numbers(part.id),
  replacedBy: (part, _, { services }) => services.catalog.part(part.replacedById),
  fits: (part, { vehicleId }, { services }) => services.catalog.fits(part, vehicleId),
  fitment: (part, args, { services }) => services.catalog.fitment(part.id, args),
};

export const catalogTypes: Pick<
  Resolvers,
  'Category' | 'PartNumber' | 'Model' | 'CatalogPage' | 'CatalogItem' | 'CategoryFacet' | 'BrandFacet'
> = {
  // The total and the facets are read only when asked, once per page (catalog/catalogPage.ts).
  CatalogPage: {
    total: async (page) => (await page.total()).count,
    totalIsLowerBound: async (page) => (await page.total()).isLowerBound,
    totalText: async (page) => (await page.total()).text,
    limitedToVehicle: (page) => page.vehicle !== null,
    facets: (page) => page.facets(),
  },
  CatalogItem: {
    fit: (item) => item.fit(),
  },
  CategoryFacet: { count: (facet) => facet },
  BrandFacet: { count: (facet) => facet },
  Category: {
    parent: (category, _, { services }) => services.catalog.category(category.parentId),
    children: (category, _, { services }) => services.catalog.childCategories(category.id),
  },
  PartNumber: {
    brand: (number, _, { services }) => services.catalog.brand(number.brandId),
  },
  Model: {
    make: (model, _, { services }) => services.catalog.make(model.makeId),
  },
};

/** Editing the catalog (admin): a part's fields, and the reference data (brands, categories, vehicles). */
export const catalogMutations: Pick<
  MutationResolvers,
  | 'updatePart'
  | 'createBrand'
  | 'renameBrand'
  | 'createCategory'
  | 'updateCategory'
  | 'createMake'
  | 'createModel'
  | 'createVehicle'
> = {
  updatePart: async (_, { id, patch }, { services, actor }) =>
    (await services.catalog.updatePart(actor, id, patch)).part,
  createBrand: (_, { name }, { services, actor }) => services.catalog.createBrand(actor, { name }),
  renameBrand: (_, { id, name }, { services, actor }) => services.catalog.renameBrand(actor, id, { name }),
  createCategory: (_, args, { services, actor }) => services.catalog.createCategory(actor, args),
  // `parentId` left out keeps the category where it is; sent as null moves it to the top.
  updateCategory: (_, { id, ...change }, { services, actor }) => services.catalog.updateCategory(actor, id, change),
  createMake: (_, { name }, { services, actor }) => services.catalog.createMake(actor, { name }),
  createModel: (_, args, { services, actor }) => services.catalog.createModel(actor, args),
  createVehicle: (_, args, { services, actor }) => services.catalog.createVehicle(actor, args),
};
