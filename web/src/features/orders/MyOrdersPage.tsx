export default function Page() {
  return <h1>MyOrdersPage</h1>;
}
