// Tool errors: a failure whose message the model sees verbatim as "Error: <message>".

/** Raised by tools and by the argument binder; `message` is the reference's exact text. */
export class ToolError extends Error {
  readonly kind = 'tool_error';
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export const isToolError = (err: unknown): err is ToolError =>
  typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'tool_error';

/** The message a non-tool exception would show in Python (`str(e)`), for the tool message. */
export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));
