import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration from src/db/schema.ts; commit it.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/catalog/catalogSchema.ts',
    './src/catalog/partLinksSchema.ts',
    './src/inventory/inventorySchema.ts',
    './src/imports/importSchema.ts',
    './src/garage/garageSchema.ts',
    './src/ordering/savedListsSchema.ts',
    './src/companies/companiesSchema.ts',
    './src/companies/companyPricesSchema.ts',
    './src/invoicing/invoicingSchema.ts',
  ],
  out: './drizzle',
});
