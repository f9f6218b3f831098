/**
 * The ids that moved between two orders of the same ids: everything outside one longest common
 * subsequence, so that [a, b, c] -> [b, c, a] reports only `a`. Ties between equally long
 * subsequences are resolved the same way every time.
 */
export function movedIds(before: readonly string[], after: readonly string[]): Set<string> {
  // lcs(i, j): length of the longest common subsequence of before[i..] and after[j..].
  const width = after.length + 1;
  const table = new Array<number>((before.length + 1) * width).fill(0);
  const lcs = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      table[i * width + j] = before[i] === after[j] ? lcs(i + 1, j + 1) + 1 : Math.max(lcs(i + 1, j), lcs(i, j + 1));
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    const id = before[i];
    if (id !== undefined && id === after[j]) {
      kept.add(id);
      i++;
      j++;
    } else if (lcs(i + 1, j) >= lcs(i, j + 1)) {
      i++;
    } else {
      j++;
    }
  }
  return new Set(before.filter((id) => !kept.has(id)));
}
