/**
 * The sentences of a practice (., !, ?, ;, newlines and their Chinese forms end one; a point before a digit is a
 * decimal point), trimmed, none empty: the cut the search's evidence sentences are made by, so that the gateway's
 * report reads the practice's sentences as the registry does.
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[!?;。！？；])\s*|(?<=\.)(?!\d)\s*|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}
