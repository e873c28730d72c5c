// The conversation and gold actions as the reviewer model reads them, against the reference's MarkdownDisplay
// on the same messages (test/fixtures/review-display.json): turn numbers, tool errors, user tools, empty
// contents, non-ASCII text and arguments, and the user-visible part of the conversation.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../../src/core/py/index.ts';
import { displayActions, displayMessages, userVisibleMessages } from '../../../src/core/review/markdown-display.ts';
import { MessageSchema } from '../../../src/core/schemas/message.ts';
import { ActionSchema } from '../../../src/core/schemas/task.ts';

const fixture = parsePyJson(await readFile(new URL('../../fixtures/review-display.json', import.meta.url), 'utf8')) as unknown as {
  messages: unknown[];
  actions: unknown[];
  display_messages: string;
  display_user_visible: string;
  display_actions: string;
};
const messages = fixture.messages.map((m) => MessageSchema.parse(m));

describe('review markdown display', () => {
  it('every message, as display_messages renders it', () => expect(displayMessages(messages)).toBe(fixture.display_messages));
  it('what the user saw, as make_user_visible_trajectory keeps it', () =>
    expect(displayMessages(userVisibleMessages(messages))).toBe(fixture.display_user_visible));
  it('the gold actions, every field in a json block', () =>
    expect(displayActions(fixture.actions.map((a) => ActionSchema.parse(a)))).toBe(fixture.display_actions));
});
