import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <section className="flex min-h-[60vh] flex-col items-center justify-center gap-6 p-8 text-center">
      <h1 className="text-4xl font-extrabold text-primary">Page Not Found: 404!</h1>
      <Link to="/" className="btn btn-outline">
        Back to the shop
      </Link>
    </section>
  );
}

export default NotFoundPage;
