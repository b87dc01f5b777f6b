export default function Page() {
  return <h1>PurchasePage</h1>;
}
