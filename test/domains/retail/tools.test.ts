// Retail domain tools: the reference's own tool tests (its fixture DB), the verified tool outputs of spec
// Appendix B, the tool schemas of Appendix A.2, and cases for every error branch of every write tool whose
// expected outputs and DB hashes were computed by running the reference's retail tools on the released DB.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loaded, newEnvironment, steppingClock } from '../../support/domains.ts';
import { parsePyJson, pyDictHash, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { ToolCall } from '../../../src/core/schemas/message.ts';
import { Environment } from '../../../src/core/environment/environment.ts';
import { freezeBase } from '../../../src/core/environment/db-state.ts';
import { domainToolTypes } from '../../../src/core/environment/domain.ts';
import { mutatesState, toolSchemas } from '../../../src/core/environment/toolkit.ts';
import { isoTimestamp } from '../../../src/core/orchestrator/clock.ts';
import { RetailDBSchema } from '../../../domains/retail/data_model.ts';
import { agentSystemPrompt } from '../../../src/core/agents/prompts.ts';
import { fileDataSource } from '../../../src/cli/data.ts';
import type { Order, RetailDB, User } from '../../../domains/retail/data_model.ts';
import { RETAIL_AGENT_TOOLS, RETAIL_TOOL_TYPES } from './tool-schemas.ts';
import { RETAIL_INITIAL_DB_HASH } from './gold-hashes.ts';

const call = (name: string, args: Record<string, PyValue>): ToolCall => ({ id: 'c1', name, arguments: args, requestor: 'assistant' });

interface ToolCase {
  name: string;
  calls: { name: string; arguments: Record<string, PyValue> }[];
  results: { error: boolean; content?: string; content_sha256?: string }[];
  db_hash: string;
}
const CASES = parsePyJson(
  readFileSync(new URL('../../fixtures/retail-tool-cases.json', import.meta.url), 'utf8'),
) as unknown as ToolCase[];

describe('retail tool cases computed with the reference tools (outputs, errors, DB hash afterwards)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const env = await newEnvironment('retail');
    c.calls.forEach((spec, i) => {
      const msg = env.getResponse(call(spec.name, spec.arguments));
      const expected = c.results[i]!;
      expect({ step: i, error: msg.error }).toEqual({ step: i, error: expected.error });
      if (expected.content !== undefined) expect(msg.content).toBe(expected.content);
      else expect(sha256Hex(msg.content ?? '')).toBe(expected.content_sha256);
    });
    expect(pyDictHash(env.agentDb as PyValue)).toBe(c.db_hash);
  });
});

describe('retail schemas, tags and data', () => {
  it('sends the tool schemas of spec Appendix A.2, in registration order', async () => {
    const { domain } = await loaded('retail');
    expect(toolSchemas(domain.agentToolkit)).toEqual(RETAIL_AGENT_TOOLS);
  });

  it('tags tools as the reference does; only write tools are replayed', async () => {
    const { domain } = await loaded('retail');
    expect(domainToolTypes(domain)).toEqual(RETAIL_TOOL_TYPES);
    const replayed = Object.entries(domain.agentToolkit.tools).filter(([, spec]) => mutatesState(spec)).map(([n]) => n);
    expect(replayed).toEqual([
      'cancel_pending_order',
      'exchange_delivered_order_items',
      'modify_pending_order_address',
      'modify_pending_order_items',
      'modify_pending_order_payment',
      'modify_user_address',
      'return_delivered_order_items',
    ]);
  });

  it('the fresh DB hashes to the reference value; the DB is parsed once per process', async () => {
    const env = await newEnvironment('retail');
    expect(pyDictHash(env.agentDb as PyValue)).toBe(RETAIL_INITIAL_DB_HASH);
    expect((await loaded('retail')).data.db).toBe((await loaded('retail')).data.db);
  });

  it('renders the policy file verbatim (its trailing newline included) into the agent prompt', async () => {
    const { data } = await loaded('retail');
    const file = await fileDataSource().readText('domains/retail/policy.md');
    expect(file.endsWith('\n')).toBe(true);
    expect(data.policy).toBe(file);
    expect(agentSystemPrompt(data.policy).endsWith(`\n</instructions>\n<policy>\n${file}\n</policy>`)).toBe(true);
  });

  it('loads 114 tasks; splits train 74, test 40, base 114; no solo mode', async () => {
    const { data } = await loaded('retail');
    expect(data.tasks.map((t) => t.id)).toEqual(Array.from({ length: 114 }, (_, i) => String(i)));
    expect(Object.fromEntries(Object.entries(data.splits!).map(([k, v]) => [k, v.length]))).toEqual({ train: 74, test: 40, base: 114 });
    await expect(newEnvironment('retail', true)).rejects.toThrow('Retail domain does not support solo mode');
  });
});

/** The reference's fixture DB of tests/test_domains/test_retail/test_tools_retail.py. */
const SARA_ADDRESS = { address1: '123 Main St', address2: 'Apt 1', city: 'San Francisco', country: 'USA', state: 'CA', zip: '94105' };
const fixtureDb = (): RetailDB =>
  freezeBase(
    RetailDBSchema.parse(
      parsePyJson(
        JSON.stringify({
          products: {
            '6086499569': {
              name: 'Classic T-Shirt',
              product_id: '6086499569',
              variants: {
                '1008292230': { item_id: '1008292230', options: { size: 'M', color: 'blue' }, available: true, price: 29.99 },
                '1008292231': { item_id: '1008292231', options: { size: 'L', color: 'blue' }, available: true, price: 29.99 },
              },
            },
          },
          users: {
            sara_doe_496: {
              user_id: 'sara_doe_496',
              name: { first_name: 'Sara', last_name: 'Doe' },
              address: SARA_ADDRESS,
              email: 'sara.doe@example.com',
              payment_methods: {
                credit_card_0000000: { source: 'credit_card', id: 'credit_card_0000000', brand: 'visa', last_four: '1234' },
                gift_card_0000000: { source: 'gift_card', id: 'gift_card_0000000', balance: 100.0 },
              },
              orders: ['#W0000000'],
            },
          },
          orders: {
            '#W0000000': {
              order_id: '#W0000000',
              user_id: 'sara_doe_496',
              address: SARA_ADDRESS,
              items: [
                { name: 'Classic T-Shirt', product_id: '6086499569', item_id: '1008292230', price: 29.99, options: { size: 'M', color: 'blue' } },
              ],
              status: 'pending',
              fulfillments: [],
              payment_history: [{ transaction_type: 'payment', amount: 29.99, payment_method_id: 'credit_card_0000000' }],
            },
          },
        }),
      ),
    ),
  );

const fixtureEnvironment = async (): Promise<Environment> => {
  const { domain, data } = await loaded('retail');
  const clock = steppingClock();
  return new Environment(domain, { ...data, db: fixtureDb() }, { now: () => isoTimestamp(clock.nowMs()) });
};

const orderOf = (env: Environment): Order => (env.agentDb as RetailDB).orders['#W0000000']!;
const userOf = (env: Environment): User => (env.agentDb as RetailDB).users.sara_doe_496!;
/** `order.status = status` between calls, through the reference's DB update (a deep merge then validation). */
const setStatus = (env: Environment, status: string): void =>
  env.setState({ agent_data: { orders: { '#W0000000': { status } } }, user_data: null }, null, []);

describe('the reference tests (test_tools_retail.py, fixture DB)', () => {
  it('cancel_pending_order', async () => {
    const env = await fixtureEnvironment();
    env.getResponse(call('cancel_pending_order', { order_id: '#W0000000', reason: 'no longer needed' }));
    const order = orderOf(env);
    expect(order.status).toBe('cancelled');
    expect(order.cancel_reason).toBe('no longer needed');
    expect(order.payment_history).toHaveLength(2);
    expect(order.payment_history[1]!.transaction_type).toBe('refund');
    expect(order.payment_history[1]!.amount.value).toBe(order.payment_history[0]!.amount.value);
  });

  it('exchange_delivered_order_items', async () => {
    const env = await fixtureEnvironment();
    setStatus(env, 'delivered');
    env.getResponse(
      call('exchange_delivered_order_items', {
        order_id: '#W0000000', item_ids: ['1008292230'], new_item_ids: ['1008292231'], payment_method_id: 'credit_card_0000000',
      }),
    );
    const order = orderOf(env);
    expect(order.status).toBe('exchange requested');
    expect(order.exchange_items).toEqual(['1008292230']);
    expect(order.exchange_new_items).toEqual(['1008292231']);
    expect(order.exchange_payment_method_id).toBe('credit_card_0000000');
  });

  it('find_user_id_by_name_zip and find_user_id_by_email', async () => {
    const env = await fixtureEnvironment();
    expect(env.getResponse(call('find_user_id_by_name_zip', { first_name: 'Sara', last_name: 'Doe', zip: '94105' })).content).toBe('sara_doe_496');
    expect(env.getResponse(call('find_user_id_by_name_zip', { first_name: 'John', last_name: 'Doe', zip: '94105' })).content).toBe('Error: User not found');
    expect(env.getResponse(call('find_user_id_by_email', { email: 'sara.doe@example.com' })).content).toBe('sara_doe_496');
    expect(env.getResponse(call('find_user_id_by_email', { email: 'nonexistent@example.com' })).content).toBe('Error: User not found');
  });

  it('get_order_details, get_product_details, get_user_details on unknown ids', async () => {
    const env = await fixtureEnvironment();
    expect(env.getResponse(call('get_order_details', { order_id: '#NONEXISTENT' })).content).toBe('Error: Order not found');
    expect(env.getResponse(call('get_product_details', { product_id: 'NONEXISTENT' })).content).toBe('Error: Product not found');
    expect(env.getResponse(call('get_user_details', { user_id: 'NONEXISTENT' })).content).toBe('Error: User not found');
  });

  it('list_all_product_types', async () => {
    const env = await fixtureEnvironment();
    const content = env.getResponse(call('list_all_product_types', {})).content!;
    expect(content).toBe('{"Classic T-Shirt": "6086499569"}');
  });

  it('modify_pending_order_address; refused on a non-pending order', async () => {
    const env = await fixtureEnvironment();
    const args = { order_id: '#W0000000', address1: '456 New St', address2: 'Apt 2', city: 'San Francisco', state: 'CA', country: 'USA', zip: '94106' };
    env.getResponse(call('modify_pending_order_address', args));
    expect(orderOf(env).address).toMatchObject({ address1: '456 New St', address2: 'Apt 2', zip: '94106' });
    setStatus(env, 'delivered');
    expect(env.getResponse(call('modify_pending_order_address', args)).content).toBe('Error: Non-pending order cannot be modified');
  });

  it('modify_pending_order_items; a second call is refused', async () => {
    const env = await fixtureEnvironment();
    const args = { order_id: '#W0000000', item_ids: ['1008292230'], new_item_ids: ['1008292231'], payment_method_id: 'credit_card_0000000' };
    env.getResponse(call('modify_pending_order_items', args));
    expect(orderOf(env).status).toBe('pending (item modified)');
    expect(orderOf(env).items[0]!.item_id).toBe('1008292231');
    setStatus(env, 'delivered');
    expect(env.getResponse(call('modify_pending_order_items', args)).content).toBe('Error: Non-pending order cannot be modified');
  });

  it('modify_pending_order_payment; refused on a non-pending order', async () => {
    const env = await fixtureEnvironment();
    const args = { order_id: '#W0000000', payment_method_id: 'gift_card_0000000' };
    env.getResponse(call('modify_pending_order_payment', args));
    expect(orderOf(env).payment_history).toHaveLength(3);
    setStatus(env, 'delivered');
    expect(env.getResponse(call('modify_pending_order_payment', args)).content).toBe('Error: Non-pending order cannot be modified');
  });

  it('modify_user_address; unknown user', async () => {
    const env = await fixtureEnvironment();
    const args = { user_id: 'sara_doe_496', address1: '789 New St', address2: 'Apt 3', city: 'San Francisco', state: 'CA', country: 'USA', zip: '94107' };
    env.getResponse(call('modify_user_address', args));
    expect(userOf(env).address).toMatchObject({ address1: '789 New St', address2: 'Apt 3', zip: '94107' });
    expect(env.getResponse(call('modify_user_address', { ...args, user_id: 'NONEXISTENT' })).content).toBe('Error: User not found');
  });

  it('return_delivered_order_items; refused on a non-delivered order', async () => {
    const env = await fixtureEnvironment();
    setStatus(env, 'delivered');
    const args = { order_id: '#W0000000', item_ids: ['1008292230'], payment_method_id: 'credit_card_0000000' };
    env.getResponse(call('return_delivered_order_items', args));
    const order = orderOf(env);
    expect(order.status).toBe('return requested');
    expect(order.return_items).toEqual(['1008292230']);
    expect(order.return_payment_method_id).toBe('credit_card_0000000');
    setStatus(env, 'pending');
    expect(env.getResponse(call('return_delivered_order_items', args)).content).toBe('Error: Non-delivered order cannot be returned');
  });

  it('calculate', async () => {
    const env = await fixtureEnvironment();
    expect(env.getResponse(call('calculate', { expression: '2 + 2' })).content).toBe('4.0');
  });

  it('transfer_to_human_agents', async () => {
    const env = await fixtureEnvironment();
    expect(env.getResponse(call('transfer_to_human_agents', { summary: 'The user wants to cancel the order.' })).content).toBe('Transfer successful');
  });
});

describe('verified tool outputs (spec Appendix B, F26–F33)', () => {
  it.each([
    ['F26', 'find_user_id_by_email', { email: 'noah.brown7922@example.com' }, false, 'noah_brown_6181'],
    ['F27', 'find_user_id_by_email', { email: 'x@y.z' }, true, 'Error: User not found'],
    ['F29', 'get_item_details', { item_id: '1008292230' }, true, 'Error: Item not found'],
    ['F31', 'get_order_details', { order_id: 'W2611340' }, true, 'Error: Order not found'],
    ['F32', 'cancel_pending_order', { order_id: '#W2611340', reason: 'x' }, true, 'Error: Non-pending order cannot be cancelled'],
    ['F33', 'calculate', { expression: '3*1.1' }, false, '3.3'],
  ] as const)('%s %s', async (_, name, args, error, content) => {
    const env = await newEnvironment('retail');
    expect(env.getResponse(call(name, args))).toMatchObject({ error, content });
  });

  it('F28 list_all_product_types is json.dumps(sort_keys=True) of name → product id', async () => {
    const env = await newEnvironment('retail');
    const content = env.getResponse(call('list_all_product_types', {})).content!;
    expect(content.startsWith('{"Action Camera": "3377618313", "Air Purifier": "3821016478", "Backpack": "2524789262"')).toBe(true);
    expect(content.endsWith('"Wristwatch": "6066914160", "Yoga Mat": "4635925001"}')).toBe(true);
    expect(Object.keys(JSON.parse(content) as object)).toHaveLength(50);
  });

  it('F30 get_order_details renders the order model with Python json.dumps', async () => {
    const env = await newEnvironment('retail');
    expect(env.getResponse(call('get_order_details', { order_id: '#W2611340' })).content).toBe(
      '{"order_id": "#W2611340", "user_id": "james_li_5688", "address": {"address1": "215 River Road", "address2": "Suite 991", "city": "New York", "country": "USA", "state": "NY", "zip": "10083"}, "items": [{"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}}, {"name": "Office Chair", "product_id": "4794339885", "item_id": "8426249116", "price": 488.81, "options": {"material": "fabric", "color": "black", "armrest": "fixed", "backrest height": "standard"}}], "status": "processed", "fulfillments": [{"tracking_id": ["357962501027"], "item_ids": ["6469567736", "8426249116"]}], "payment_history": [{"transaction_type": "payment", "amount": 536.65, "payment_method_id": "gift_card_1725971"}], "cancel_reason": null, "exchange_items": null, "exchange_new_items": null, "exchange_payment_method_id": null, "exchange_price_difference": null, "return_items": null, "return_payment_method_id": null}',
    );
  });
});
