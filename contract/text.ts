// Plain-text helpers shared by server and web. No zod here: pages import this on the guest's path.

/**
 * `text` without any of the characters in `chars` at its end. A loop rather than `/[…]+$/`: that pattern tries
 * every position of a long run of those characters that is not at the end, which is quadratic.
 */
export function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}
