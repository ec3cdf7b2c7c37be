/**
 * A determination's status in one word, as the list filters on it and the rules decide cases by:
 * what the strictest rule that reached the target says, and `indeterminate` only where neither
 * reached it and unknown stakes keep one of them from deciding.
 */
import type { OwnershipStatus } from '../cases/rules.ts';

type Verdicts = { ofac: { blocked: boolean; determinate: boolean }; bis: { restricted: boolean; determinate: boolean } };

export function determinationStatus({ ofac, bis }: Verdicts): OwnershipStatus {
  if (ofac.blocked) return 'blocked';
  if (bis.restricted) return 'restricted';
  if (!ofac.determinate || !bis.determinate) return 'indeterminate';
  return 'clear';
}
