export default function Page() {
  return <h1>AddPartPage</h1>;
}
