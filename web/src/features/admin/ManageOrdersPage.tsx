export default function Page() {
  return <h1>ManageOrdersPage</h1>;
}
