// Airline tools against the reference: its own unit tests (on their fixture DB), the spec's verified tool
// outputs (Appendix B, one environment in sequence), and every error branch of every write tool on the real
// DB, with expected contents and final DB hashes produced by the reference toolkit.
import { describe, expect, it } from 'vitest';
import { PyFloat, dumpsPy, pyDictHash } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { PYDANTIC_DOCS_VERSION } from '../../../src/core/environment/model.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';
import { toolSchemas } from '../../../src/core/environment/toolkit.ts';
import { airlineTools } from '../../../domains/airline/tools.ts';
import { airlineEnv, airlineEnvWith, call, flightDb, pyFixture, reservation, user } from './helpers.ts';
import { loaded } from '../../support/domains.ts';
import { fileDataSource } from '../../../src/cli/data.ts';
import { agentSystemPrompt } from '../../../src/core/agents/prompts.ts';
import { Environment } from '../../../src/core/environment/environment.ts';

const available = { basic_economy: 16, economy: 10, business: 13 };
const prices = { basic_economy: 87, economy: 122, business: 471 };

/** The reference test suite's fixture DB (tests/test_domains/test_airline/test_tools_airline.py). */
const REFERENCE_TEST_DB = {
  flights: {
    HAT001: {
      flight_number: 'HAT001', origin: 'PHL', destination: 'LGA',
      scheduled_departure_time_est: '06:00:00', scheduled_arrival_time_est: '07:00:00',
      dates: {
        '2024-05-14': { status: 'cancelled' },
        '2024-05-15': { status: 'landed', actual_departure_time_est: '2024-05-15T06:04:00', actual_arrival_time_est: '2024-05-15T07:30:00' },
        '2024-05-16': { status: 'available', available_seats: available, prices },
      },
    },
    HAT002: {
      flight_number: 'HAT002', origin: 'LGA', destination: 'LAX',
      scheduled_departure_time_est: '08:00:00', scheduled_arrival_time_est: '09:00:00',
      dates: { '2024-05-16': { status: 'available', available_seats: available, prices } },
    },
  },
  users: {
    mia_li_3668: {
      user_id: 'mia_li_3668',
      name: { first_name: 'Mia', last_name: 'Li' },
      address: { address1: '975 Sunset Drive', address2: 'Suite 217', city: 'Austin', country: 'USA', state: 'TX', zip: '78750' },
      email: 'mia.li3818@example.com',
      dob: '1990-04-05',
      payment_methods: {
        credit_card_4421486: { source: 'credit_card', brand: 'visa', last_four: '7447', id: 'credit_card_4421486' },
        certificate_4856383: { source: 'certificate', amount: 100, id: 'certificate_4856383' },
      },
      saved_passengers: [{ first_name: 'Amelia', last_name: 'Ahmed', dob: '1957-03-21' }],
      membership: 'gold',
      reservations: ['NO6JO3', 'AIXC49', 'HKEG34'],
    },
  },
  reservations: {
    '4WQ150': {
      reservation_id: '4WQ150', user_id: 'mia_li_3668', origin: 'PHL', destination: 'LGA',
      flight_type: 'one_way', cabin: 'economy',
      flights: [{ origin: 'PHL', destination: 'LGA', flight_number: 'HAT001', date: '2024-05-16', price: 122 }],
      passengers: [
        { first_name: 'Chen', last_name: 'Jackson', dob: '1956-07-07' },
        { first_name: 'Raj', last_name: 'Smith', dob: '1967-04-01' },
      ],
      payment_history: [{ payment_id: 'credit_card_4421486', amount: 500 }],
      created_at: '2024-05-02T03:10:19', total_baggages: 5, nonfree_baggages: 0, insurance: 'no',
    },
  },
};

const testEnv = () => airlineEnvWith(REFERENCE_TEST_DB);
const payment = (amount: number) => [{ payment_id: 'credit_card_4421486', amount }];
const booking = (amount: number) => ({
  user_id: 'mia_li_3668', origin: 'PHL', destination: 'LGA', flight_type: 'one_way', cabin: 'economy',
  flights: [{ flight_number: 'HAT001', date: '2024-05-16' }],
  passengers: [{ first_name: 'Noah', last_name: 'Brown', dob: '1990-01-01' }],
  payment_methods: payment(amount), total_baggages: 2, nonfree_baggages: 0, insurance: 'no',
});

describe('the reference unit tests (their fixture DB)', () => {
  it('book_reservation: the exact price books; one dollar short does not add up', async () => {
    const env = await testEnv();
    expect(call(env, 'book_reservation', booking(122)).error).toBe(false);
    const short = call(env, 'book_reservation', booking(121));
    expect(short).toMatchObject({ error: true, content: 'Error: Payment amount does not add up, total price is 122, but paid 121' });
  });

  it('cancel_reservation: cancelled, with the refund row appended', async () => {
    const env = await testEnv();
    expect(call(env, 'cancel_reservation', { reservation_id: '4WQ150' }).error).toBe(false);
    const r = reservation(env, '4WQ150');
    expect(r.status).toBe('cancelled');
    expect(r.payment_history).toEqual([payment(500)[0], payment(-500)[0]]);
  });

  it('get_reservation_details and get_user_details: found, and errors for unknown ids', async () => {
    const env = await testEnv();
    expect(call(env, 'get_reservation_details', { reservation_id: '4WQ150' }).error).toBe(false);
    expect(call(env, 'get_reservation_details', { reservation_id: 'NONEXISTENT' })).toMatchObject({ error: true, content: 'Error: Reservation NONEXISTENT not found' });
    expect(call(env, 'get_user_details', { user_id: 'mia_li_3668' }).error).toBe(false);
    expect(call(env, 'get_user_details', { user_id: 'NONEXISTENT' })).toMatchObject({ error: true, content: 'Error: User NONEXISTENT not found' });
    expect(call(env, 'list_all_airports').error).toBe(false);
  });

  it('search_direct_flight and search_onestop_flight: one result on 05-16, none on 05-17', async () => {
    const env = await testEnv();
    const direct = (date: string) => JSON.parse(call(env, 'search_direct_flight', { origin: 'PHL', destination: 'LGA', date }).content!) as unknown[];
    expect(direct('2024-05-16')).toHaveLength(1);
    expect(direct('2024-05-17')).toEqual([]);
    const onestop = (date: string) => JSON.parse(call(env, 'search_onestop_flight', { origin: 'PHL', destination: 'LAX', date }).content!) as { flight_number: string; date: string }[][];
    const pairs = onestop('2024-05-16');
    expect(pairs.map((p) => p.map((f) => [f.flight_number, f.date]))).toEqual([[['HAT001', '2024-05-16'], ['HAT002', '2024-05-16']]]);
    expect(onestop('2024-05-17')).toEqual([]);
  });

  it('send_certificate: certificate_3221322 holds the amount', async () => {
    const env = await testEnv();
    expect(call(env, 'send_certificate', { user_id: 'mia_li_3668', amount: 100 }).error).toBe(false);
    const cert = user(env, 'mia_li_3668').payment_methods.certificate_3221322!;
    expect(cert).toMatchObject({ source: 'certificate', id: 'certificate_3221322' });
    // Stored as a float (Certificate.amount: float), like the reference's 100.0.
    expect((cert as { amount: PyFloat }).amount).toEqual(new PyFloat(100));
    expect(call(env, 'transfer_to_human_agents', { summary: 'The user wants to cancel the reservation.' })).toMatchObject({ error: false, content: 'Transfer successful' });
  });

  it('update_reservation_baggages: 2 paid bags cost 100; a certificate cannot pay', async () => {
    const env = await testEnv();
    const args = { reservation_id: '4WQ150', total_baggages: 2, nonfree_baggages: 2, payment_id: 'credit_card_4421486' };
    expect(call(env, 'update_reservation_baggages', args).error).toBe(false);
    const r = reservation(env, '4WQ150');
    expect([r.total_baggages, r.nonfree_baggages, r.payment_history.at(-1)!.amount]).toEqual([2, 2, 100]);
    expect(call(env, 'update_reservation_baggages', { ...args, payment_id: 'certificate_4856383' })).toMatchObject({
      error: true, content: 'Error: Certificate cannot be used to update reservation',
    });
  });

  it('update_reservation_flights: economy → basic economy refunds 2 × (87 − 122) = −70', async () => {
    const env = await testEnv();
    const res = call(env, 'update_reservation_flights', {
      reservation_id: '4WQ150', cabin: 'basic_economy', flights: [{ flight_number: 'HAT001', date: '2024-05-16' }], payment_id: 'credit_card_4421486',
    });
    expect(res.error).toBe(false);
    const r = reservation(env, '4WQ150');
    expect(r.cabin).toBe('basic_economy');
    expect(r.payment_history.at(-1)!.amount).toBe(-70);
  });

  it('update_reservation_passengers: two replace two; three do not match', async () => {
    const env = await testEnv();
    const passengers = [
      { first_name: 'John', last_name: 'Doe', dob: '1956-07-07' },
      { first_name: 'Jane', last_name: 'Doe', dob: '1967-04-01' },
    ];
    expect(call(env, 'update_reservation_passengers', { reservation_id: '4WQ150', passengers }).error).toBe(false);
    expect(reservation(env, '4WQ150').passengers).toEqual(passengers);
    const three = [...passengers, { first_name: 'Jim', last_name: 'Beam', dob: '1978-05-03' }];
    expect(call(env, 'update_reservation_passengers', { reservation_id: '4WQ150', passengers: three })).toMatchObject({
      error: true, content: 'Error: Number of passengers does not match',
    });
    expect(call(env, 'calculate', { expression: '1 + 1' }).content).toBe('2.0');
  });
});

/** Reference outputs recorded under pydantic 2.13: the pinned version's error URLs differ only in that number. */
const atPinnedPydantic = (text: string): string =>
  text.replaceAll('errors.pydantic.dev/2.13/', `errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/`);

interface VerifiedOutput {
  id: string;
  name: string;
  arguments: Record<string, PyValue>;
  error: boolean;
  content?: string;
  prefix?: string;
  length?: number;
  sha256_16?: string;
}

describe('verified tool outputs (spec Appendix B, airline), in sequence on one environment', async () => {
  const env = await airlineEnv();
  const outputs = pyFixture<VerifiedOutput[]>('airline-appendix-b.json');
  it.each(outputs.map((o) => [o.id, o] as const))('%s', (_, o) => {
    const message = call(env, o.name, o.arguments);
    expect(message.error).toBe(o.error);
    if (o.content !== undefined) {
      expect(message.content).toBe(atPinnedPydantic(o.content));
    } else {
      expect(message.content!.startsWith(o.prefix!)).toBe(true);
      expect(message.content!.length).toBe(o.length);
      expect(sha256Hex(message.content!).slice(0, 16)).toBe(o.sha256_16);
    }
  });
});

interface ToolCase {
  name: string;
  /** A long content is given by its SHA-256. */
  calls: { name: string; arguments: Record<string, PyValue>; content?: string; content_sha256?: string; error: boolean }[];
  db_hash: string;
}

describe('write-tool branches on the real DB (outputs and final DB hash from the reference toolkit)', () => {
  const cases = pyFixture<ToolCase[]>('airline-tool-cases.json');
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const env = await airlineEnv();
    for (const step of c.calls) {
      const message = call(env, step.name, step.arguments);
      const content = step.content === undefined ? sha256Hex(message.content!) : message.content;
      expect({ error: message.error, content }).toEqual({
        error: step.error,
        content: step.content === undefined ? step.content_sha256 : atPinnedPydantic(step.content),
      });
    }
    expect(pyDictHash(flightDb(env) as never)).toBe(c.db_hash);
  });
});

describe('toolkit, policy and data', () => {
  it('sends the tool schemas of spec Appendix A.1 byte for byte, in order', () => {
    const expected = pyFixture<PyValue[]>('airline-tool-schemas.json');
    expect(dumpsPy(toolSchemas(airlineTools) as unknown as PyValue)).toBe(dumpsPy(expected as PyValue));
  });

  it('renders the policy file verbatim into the agent prompt; no solo mode', async () => {
    const { domain, data } = await loaded('airline');
    const file = await fileDataSource().readText('domains/airline/policy.md');
    expect(data.policy).toBe(file);
    expect(agentSystemPrompt(data.policy).endsWith(`\n<policy>\n${file}\n</policy>`)).toBe(true);
    expect(domain.supportsSolo).toBe(false);
    expect(() => new Environment(domain, data, { solo: true, now: () => '2026-01-01T00:00:00' })).toThrow(
      'Airline domain does not support solo mode',
    );
  });

  it('parses the DB once per process: every load shares it, and it hashes as the reference (Appendix C)', async () => {
    expect((await loaded('airline')).data.db).toBe((await loaded('airline')).data.db);
    expect(pyDictHash((await loaded('airline')).data.db as never)).toBe(
      '124e39a664b56402bcd09cb8a6a9cece6acb8462337c969799d5658e3250f263',
    );
  });

  it('registers the 14 tools in the reference order with their tags', () => {
    expect(toolSchemas(airlineTools).map((s) => s.function.name)).toEqual([
      'book_reservation', 'calculate', 'cancel_reservation', 'get_reservation_details', 'get_user_details',
      'list_all_airports', 'search_direct_flight', 'search_onestop_flight', 'send_certificate',
      'transfer_to_human_agents', 'update_reservation_baggages', 'update_reservation_flights',
      'update_reservation_passengers', 'get_flight_status',
    ]);
    const tags = Object.fromEntries(Object.entries(airlineTools.tools).map(([n, s]) => [n, s.type]));
    expect(Object.entries(tags).filter(([, t]) => t === 'write').map(([n]) => n)).toEqual([
      'book_reservation', 'cancel_reservation', 'send_certificate', 'update_reservation_baggages',
      'update_reservation_flights', 'update_reservation_passengers',
    ]);
    expect([tags.calculate, tags.transfer_to_human_agents]).toEqual(['generic', 'generic']);
  });
});
