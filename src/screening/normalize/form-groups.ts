/**
 * Groups of words that are forms of one word no spelling rule connects (Bob and Robert; Airlines
 * and Air): two words are the same when a group holds both. A word may sit in several groups
 * (Ted: Edward, Theodore).
 */
export class FormGroups {
  private readonly groupsOf = new Map<string, number[]>();

  constructor(private readonly groups: readonly (readonly string[])[]) {
    groups.forEach((group, i) => {
      for (const word of group) this.groupsOf.set(word, [...(this.groupsOf.get(word) ?? []), i]);
    });
  }

  /** True when the two folded words are forms of one word. */
  same(a: string, b: string): boolean {
    const groups = this.groupsOf.get(a);
    return groups !== undefined && (this.groupsOf.get(b) ?? []).some((g) => groups.includes(g));
  }

  /** Every other form of a folded word, for candidate lookup. */
  others(word: string): string[] {
    return (this.groupsOf.get(word) ?? []).flatMap((g) => (this.groups[g] as string[]).filter((w) => w !== word));
  }
}
