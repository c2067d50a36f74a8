/**
 * A validation message from the API as a person reads it under a form field: a sentence with a
 * capital letter, zod's default wording ("Too small: expected string to have >=1 characters") in
 * plain words, and slugs such as "best-practice" as the console names them.
 */
export function humanValidationMessage(message: string): string {
  let m = message.trim();
  const tooSmall = /^Too small: expected (\w+) to have >=?(\d+) (characters|items)/.exec(m);
  const tooBig = /^Too big: expected (\w+) to have <=?(\d+) (characters|items)/.exec(m);
  if (tooSmall) m = tooSmall[2] === "1" ? "Required" : `At least ${tooSmall[2]} ${tooSmall[3]}`;
  else if (tooBig) m = `At most ${Number(tooBig[2]).toLocaleString("en-US")} ${tooBig[3]}`;
  else if (/^Invalid input: expected \w+, received (undefined|null)$/.test(m)) m = "Required";
  else if (/^Invalid option: expected one of/.test(m)) m = "Choose one of the options";
  else if (/must be one of [a-z-]+(, [a-z-]+)+$/.test(m)) m = m.replace(/^(\w+) must be one of .*$/, "Choose a $1");
  return m.charAt(0).toUpperCase() + m.slice(1);
}
