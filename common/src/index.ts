export * from './messages';
export * from './rules';
export * from './format';
export * from './pages';
export * from './pricing';
export * from './partNumbers';
export * from './inventory';
export * from './catalogSearch';
