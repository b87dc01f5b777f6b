export default function Page() {
  return <h1>MyProfilePage</h1>;
}
