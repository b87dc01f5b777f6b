export default function Page() {
  return <h1>ManagePartsPage</h1>;
}
