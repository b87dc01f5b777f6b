export default function Page() {
  return <h1>CatalogPage</h1>;
}
