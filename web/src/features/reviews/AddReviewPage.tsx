export default function Page() {
  return <h1>AddReviewPage</h1>;
}
