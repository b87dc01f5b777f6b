export default function Page() {
  return <h1>AllUsersPage</h1>;
}
