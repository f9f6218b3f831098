/**
 * The first `count` items in an order, as sorting them all and taking the first `count` gives them (ties in the
 * items' order, as the sort is stable): a few hits of the hundreds of blocks a practice's signals reach are kept
 * in order as the items are read, which compares most items with the last one kept alone.
 */
export function firstOf<T>(items: T[], count: number, order: (a: T, b: T) => number): T[] {
  if (!(Number.isInteger(count) && count >= 1 && count * 8 < items.length)) return [...items].sort(order).slice(0, count);
  const first: T[] = [];
  for (const item of items) {
    if (first.length === count && order(item, first[count - 1]!) >= 0) continue;
    let at = first.length;
    while (at > 0 && order(item, first[at - 1]!) < 0) at--;
    first.splice(at, 0, item);
    if (first.length > count) first.pop();
  }
  return first;
}
