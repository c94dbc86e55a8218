// The home page's own parts (issue 15): the guest's welcome and the signed-in buyer's rows above the listing.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { HomeHero } from './home-hero.tsx';
export { PersonalRows, readPersonal, type Personal } from './personal-rows.tsx';
