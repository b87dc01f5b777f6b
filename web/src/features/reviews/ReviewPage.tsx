export default function Page() {
  return <h1>ReviewPage</h1>;
}
