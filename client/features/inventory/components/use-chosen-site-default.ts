// The default location of the site this browser works at (the Inventory page's site picker),
// where stock changes that name no place go: null for All sites, or until the sites are read.
import { useActorRef, useSelector } from '@xstate/react';
import { useChosenSite } from '../../../lib/chosen-site';
import { sitesMachine } from '../sites.machine';

export function useChosenSiteDefault(): string | null {
  const chosen = useChosenSite();
  const sites = useActorRef(sitesMachine, { input: { params: null } });
  return useSelector(sites, (s) =>
    chosen ? (s.context.data?.sites.find((site) => site.id === chosen)?.defaultLocationId ?? null) : null,
  );
}
