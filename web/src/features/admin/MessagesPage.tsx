export default function Page() {
  return <h1>MessagesPage</h1>;
}
