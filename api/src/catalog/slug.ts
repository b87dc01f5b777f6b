/**
 * A name as it appears in addresses: lower-case ASCII letters and digits joined by hyphens, accents dropped
 * (`Öhlins` is `ohlins`, `CRF450R` is `crf450r`, `Brake pads` is `brake-pads`). Empty when nothing is left.
 */
export const slugOf = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
