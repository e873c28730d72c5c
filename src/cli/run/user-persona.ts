// `--user-persona`: the reference's PersonaConfig (data_model/persona.py), checked as its from_dict checks it.
// Each attribute is a value or a weighted choice of values ({"minimal": 0.8, "standard": 0.2}). In text mode the
// reference's run command builds the persona and then drops it (results record persona_config null), so
// tau2-edge checks it the same way and records nothing.
import { z } from 'zod';
import { parseOrExplain } from '../cli-command.ts';

/** A value, or weights over values (normalised by their sum, which must be positive). */
const attribute = <T extends readonly [string, ...string[]]>(values: T) =>
  z.union([
    z.enum(values),
    z
      .partialRecord(z.enum(values), z.number().nonnegative())
      .refine((weights) => Object.values<number | undefined>(weights).reduce<number>((a, b) => a + (b ?? 0), 0) > 0, 'Weights must add up to more than 0'),
  ]);

// Other keys are ignored, as pydantic ignores them.
export const UserPersonaSchema = z.looseObject({
  verbosity: attribute(['standard', 'minimal']).optional(),
  interrupt_tendency: attribute(['waits', 'interrupts']).nullable().optional(),
});

/** Checks `--user-persona JSON`; throws naming the flag and the attribute. */
export const checkUserPersona = (text: string): void => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--user-persona takes a JSON object, got: ${text}`);
  }
  // The reference skips an empty or null persona.
  if (value === null || (typeof value === 'object' && Object.keys(value).length === 0)) return;
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`--user-persona takes a JSON object, got: ${text}`);
  parseOrExplain(UserPersonaSchema, value);
};
