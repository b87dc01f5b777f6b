export default function Page() {
  return <h1>HomePage</h1>;
}
