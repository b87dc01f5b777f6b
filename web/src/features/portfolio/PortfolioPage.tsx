export default function Page() {
  return <h1>PortfolioPage</h1>;
}
