// Reading a generated telecom task id, `[family]issue1|issue2|…[PERSONA:persona]`
// (reference: the id parsers in src/tau2/domains/telecom/tasks/utils.py).

const ID = /^\[([a-zA-Z_]+)\](.*)\[PERSONA:([a-zA-Z_]+)\]$/;

export interface TelecomTaskId {
  /** `service_issue`, `mobile_data_issue` or `mms_issue`. */
  readonly family: string;
  /** The composed issues, sorted by name. */
  readonly issues: readonly string[];
  readonly persona: string;
}

export const formatTaskId = (id: TelecomTaskId): string => `[${id.family}]${id.issues.join('|')}[PERSONA:${id.persona}]`;

/** The parts of a telecom task id, or null for an id of another shape. */
export const parseTaskId = (id: string): TelecomTaskId | null => {
  const match = ID.exec(id);
  if (!match) return null;
  const [, family, issues, persona] = match as unknown as [string, string, string, string];
  return { family, issues: issues.split('|'), persona };
};
