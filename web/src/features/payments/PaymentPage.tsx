export default function Page() {
  return <h1>PaymentPage</h1>;
}
