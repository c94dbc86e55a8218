import { useEffect, useState } from 'react';
import type { City, Country } from '#contract/api';
import { api } from '../../lib/api.ts';

/** Cities and countries for the profile form (cached by the API client). */
export function useLookups() {
  const [lists, setLists] = useState<{ cities: City[]; countries: Country[] } | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([api.read('lookups.cities'), api.read('lookups.countries')])
      .then(([cities, countries]) => live && setLists({ cities: cities.result, countries: countries.result }))
      .catch(() => live && setLists({ cities: [], countries: [] }));
    return () => void (live = false);
  }, []);
  return lists;
}
