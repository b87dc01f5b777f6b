export default function Page() {
  return <h1>BlogPage</h1>;
}
