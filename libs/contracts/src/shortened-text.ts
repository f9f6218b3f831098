/**
 * A text cut to at most `most` characters (code points), never inside one: half of a surrogate pair would
 * show as U+FFFD and is text PostgreSQL refuses to store. `mark` is appended when something was cut.
 */
export function shortenedText(text: string, most: number, mark = ''): string {
  if (text.length <= most) return text;
  let units = 0;
  let characters = 0;
  for (const character of text) {
    if (characters === most) return `${text.slice(0, units)}${mark}`;
    units += character.length;
    characters += 1;
  }
  return text;
}
