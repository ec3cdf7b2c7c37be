/**
 * Trade words in the forms brands write them, which no edit distance connects: Mahan Airlines is
 * MAHAN AIR on the list, X Technologies trades as X Tech. Compared as one word (how `word_form`),
 * not folded into one spelling: folding would put a misspelled long form out of reach of its
 * listed long form. Folded English text (see fold.ts).
 */
import { FormGroups } from './form-groups.ts';

export const TRADE_WORDS = new FormGroups([
  ['air', 'airlines', 'airline', 'airways', 'airway'],
  ['tech', 'technologies', 'technology'],
  ['service', 'services', 'svc', 'svcs'],
  ['shipping', 'ship', 'ships'],
]);
