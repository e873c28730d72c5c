// Retail tasks whose gold actions raise in the reference too. The reference skips a failing gold action when it
// builds the gold DB, so these tasks still score 1.0; check-data verifies that exactly these failures occur.
import type { GoldActionErrors } from '../../src/core/environment/domain.ts';

const PRODUCT_6086499569 =
  'product 6086499569 is the example id of the tool docstrings (the "Classic T-Shirt" of the reference\'s test ' +
  'fixture DB), not a product of the released DB';

export const RETAIL_GOLD_ACTION_ERRORS: Readonly<Record<string, GoldActionErrors>> = {
  '2': { errors: ['get_product_details: Product not found'], reason: PRODUCT_6086499569 },
  '3': { errors: ['get_product_details: Product not found'], reason: PRODUCT_6086499569 },
  '4': { errors: ['get_product_details: Product not found'], reason: PRODUCT_6086499569 },
  '35': {
    errors: ['find_user_id_by_email: User not found'],
    reason:
      'aarav.santos8321@example.com is the wrong one of the two emails the user knows; no user has it, and the ' +
      'gold path then tries aarav.santos8320@example.com',
  },
  '37': {
    errors: ['find_user_id_by_email: User not found'],
    reason:
      'daikisanchez1479@example.com (the scenario\'s spelling) belongs to no user, whose email is ' +
      'daiki.sanchez1479@example.com; the gold path then finds the user by name and zip',
  },
  '38': {
    errors: ['find_user_id_by_email: User not found'],
    reason:
      'daikisanchez1479@example.com (the scenario\'s spelling) belongs to no user, whose email is ' +
      'daiki.sanchez1479@example.com; the gold path then finds the user by name and zip',
  },
  '39': {
    errors: ['find_user_id_by_name_zip: User not found'],
    reason: 'the user just moved: the DB still has her old zip 32169, so the new zip 85033 finds no one',
  },
  '46': {
    errors: ['get_order_details: Order not found', 'get_order_details: Order not found'],
    reason: 'the order ids #9502126 and #9502127 lack the "W" after "#"; the gold path then retries with #W9502127',
  },
  '47': {
    errors: ['get_order_details: Order not found', 'get_order_details: Order not found'],
    reason: 'the order ids #9502126 and #9502127 lack the "W" after "#"; the gold path then retries with #W9502127',
  },
  '54': {
    errors: ['find_user_id_by_email: User not found'],
    reason:
      'silva7872@example.com is the wrong one of the two emails the user knows; no user has it, and the gold ' +
      'path then tries amelia.silva7872@example.com',
  },
  '55': {
    errors: ['find_user_id_by_email: User not found'],
    reason:
      'silva7872@example.com is the wrong one of the two emails the user knows; no user has it, and the gold ' +
      'path then tries amelia.silva7872@example.com',
  },
  '64': {
    errors: ['exchange_delivered_order_items: Non-delivered order cannot be exchanged'],
    reason:
      'order #W7464385 is pending, not delivered, so the exchange fails; the gold path then modifies the same ' +
      'items with modify_pending_order_items',
  },
  '67': {
    errors: ['find_user_id_by_name_zip: User not found', 'find_user_id_by_name_zip: User not found'],
    reason: 'the zips 98178 and 98186 are wrong guesses (the user lives in 98187), as the scenario makes the user give them',
  },
  '68': {
    errors: ['find_user_id_by_name_zip: User not found'],
    reason: 'the zip 98178 is a wrong guess (the user lives in 98187), as the scenario makes the user give it',
  },
  '105': {
    errors: ['exchange_delivered_order_items: Insufficient gift card balance to pay for the price difference'],
    reason:
      'the exchange of both Tea Kettles (7292993796, 94.8 each) for 3761330360 (101.12) and 9647374798 (109.58) ' +
      'costs 21.1 more, and gift card gift_card_7245904 holds only 17.0, so the gold DB stays the initial one',
  },
};
