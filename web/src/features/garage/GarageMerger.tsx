import { useEffect, useRef } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useMergeGarageMutation } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { useOptionalAuth } from '../../lib/auth';
import { writeGarage } from '../../lib/garage/useGarageStore';
import { visitorGarage } from '../../lib/garage/visitorGarage';

/**
 * At sign-in, the visitor's garage (this browser's) goes into the account's garage on the server (mergeGarage: the
 * bikes not there yet are added, the visitor's current bike becomes the current one) and is emptied here, as the
 * cart is (CartMerger). Bikes that did not go in are told in a toast.
 */
export function GarageMerger() {
  const status = useOptionalAuth()?.status;
  const [merge] = useMergeGarageMutation({ update: (cache, r) => writeGarage(cache, r.data?.mergeGarage.garage) });
  const running = useRef(false);
  useEffect(() => {
    if (status !== 'signedIn' || running.current) return;
    const { bikes, currentId } = visitorGarage.read();
    if (!bikes.length) return;
    running.current = true;
    // The merge's id is kept with the garage until it is emptied: sent again after a reload, it merges nothing twice.
    const mergeId = visitorGarage.mergeId();
    merge({ variables: { vehicleIds: bikes.map((b) => b.id), currentId, mergeId } })
      .then(({ data }) => {
        visitorGarage.clear();
        for (const note of data?.mergeGarage.notes ?? []) toast.error(note.message);
      })
      .catch((e: unknown) => toast.error(`Your garage could not be saved to your account: ${errorMessage(e)}`))
      .finally(() => {
        running.current = false;
      });
  }, [status, merge]);
  return null;
}
