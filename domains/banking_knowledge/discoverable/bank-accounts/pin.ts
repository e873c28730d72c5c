// The PIN rules every activation and PIN change applies (reference: _validate_pin in tools.py).
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import { notDigits } from './python.ts';

const SEQUENTIAL_PINS = [
  '0123', '1234', '2345', '3456', '4567', '5678', '6789', '9876', '8765', '7654', '6543', '5432', '4321', '3210',
];

/** Why the PIN is refused, or null when it is acceptable. */
export const pinError = (pin: PyValue): string | null => {
  if (!truthy(pin) || notDigits(pin, 4)) return 'PIN must be exactly 4 digits.';
  const digits = pin as string;
  if (SEQUENTIAL_PINS.includes(digits)) return 'PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN.';
  if (new Set(digits).size === 1) return 'PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN.';
  return null;
};
