// Python's conditional group `(?(n)yes|no)` in a JavaScript regular expression, which has none. JavaScript
// cannot ask whether a group took part in the match (a backreference to an unset group matches the empty
// string, as one to an empty capture does), so a marker capture after group n records text that no later
// position can start with: from one character before the group's end to the text's end (`_cn`), or, for a
// group that ended at the very start, the whole text (`_dn`). At a later position the group is set exactly
// when a backreference to its marker does not match there (the marker is longer than what is left), or, at
// the start, when the whole-text marker matches and the text is not empty. The tests run in look-aheads, so
// they read forwards inside a look-behind too. The translator refuses the cases where the group could end
// after the conditional (a group in a look-ahead) or where JavaScript resets it (a group in a repeat); an
// empty text, which holds nothing to mark with, reads every conditional's group as unset.

/** Written right after group n's capture. */
export const groupMarker = (group: number): string => `(?:(?<![^])(?=(?<_d${group}>[^]*))|(?<=(?=(?<_c${group}>[^]*))[^]))`;

/** True at a position exactly when group n has taken part in the match so far (see above). */
const isSet = (group: number): string => `(?!\\k<_c${group}>)|(?!\\k<_d${group}>)|(?<![^])\\k<_d${group}>(?<=[^])`;

/**
 * `(?(n)yes|no)` over the translated branches (`no` empty when the pattern has none). Inside a look-behind the
 * test follows its branch, so that it is made first, at the branch's right end, where the conditional stands.
 */
export const conditionalSource = (group: number, yes: string, no: string, backward: boolean): string => {
  const [set, unset] = [`(?=${isSet(group)})`, `(?!${isSet(group)})`];
  return backward ? `(?:(?:${yes})${set}|(?:${no})${unset})` : `(?:${set}(?:${yes})|${unset}(?:${no}))`;
};
