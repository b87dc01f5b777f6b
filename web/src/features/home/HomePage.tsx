import { useHomeDataQuery } from '../../generated/graphql';
import { ContactSection } from './components/ContactSection';
import { HeroSlider } from './components/HeroSlider';
import { PopularParts } from './components/PopularParts';
import { PromoBanner } from './components/PromoBanner';
import { ReviewsSlider } from './components/ReviewsSlider';
import { StatsBand } from './components/StatsBand';

/** How many popular parts and reviews the home page asks for, in one request. */
export const homeDataVariables = { partsLimit: 6, reviewsLimit: 12 };

/** The marketing page: the spec's six sections, in order (spec §1). */
export default function HomePage() {
  // Parts and reviews come in one request; a failure leaves the placeholders, as the spec's fetch did.
  const { data } = useHomeDataQuery({ variables: homeDataVariables });
  return (
    <>
      <h1 className="sr-only">PartsYard: reliable motorcycle parts since 1967</h1>
      <HeroSlider />
      <PopularParts parts={data?.popularParts ?? []} />
      <StatsBand />
      <ReviewsSlider reviews={data?.reviews ?? []} />
      <PromoBanner />
      <ContactSection />
    </>
  );
}
