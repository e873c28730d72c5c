// Changes to an existing reservation: cancellation, bags, flights, passengers, and the payment for a change
// (reference: AirlineTools.cancel_reservation, update_reservation_*, _payment_for_update).
import { PyFloat, compare, pyEquals } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import type { ToolArgs } from '../../src/core/environment/toolkit.ts';
import { FlightInfoSchema, PassengerSchema, PaymentSchema } from './data_model.ts';
import type { FlightDB, FlightInfo, Payment, Reservation, ReservationFlight, User } from './data_model.ts';
import { getFlight, getFlightInstance, getReservation, getUser } from './lookups.ts';
import { modelsIfAllDicts, noAttribute, pyKeyError, pyLen, pyMul, pySub } from '../../src/core/environment/python-args.ts';

/**
 * Charges (or refunds, for a negative total) a change to one payment method: certificates are refused, a gift
 * card must cover the total and is debited at once. Returns the payment row, or null for a zero total.
 */
const paymentForUpdate = (user: User, paymentId: PyValue | undefined, total: PyValue): Payment | null => {
  if (!dictHas(user.payment_methods, paymentId)) throw new ToolError('Payment method not found');
  const method = user.payment_methods[paymentId]!;
  if (method.source === 'certificate') throw new ToolError('Certificate cannot be used to update reservation');
  if (method.source === 'gift_card') {
    if (compare(method.amount, total) < 0) throw new ToolError('Gift card balance is not enough');
    method.amount = pySub(method.amount, total) as PyFloat;
  }
  // Validated after the gift card was debited: a failing Payment (a fractional total) leaves the debit in place.
  return pyEquals(total, 0) ? null : constructModel('Payment', PaymentSchema, { payment_id: paymentId, amount: total });
};

export const cancelReservation = (db: FlightDB, { reservation_id }: ToolArgs): Reservation => {
  const reservation = getReservation(db, reservation_id);
  const refunds = reservation.payment_history.map((p) => ({ payment_id: p.payment_id, amount: -p.amount || 0 }));
  reservation.payment_history.push(...refunds);
  reservation.status = 'cancelled';
  return reservation;
};

export const updateReservationBaggages = (db: FlightDB, args: ToolArgs): Reservation => {
  const { reservation_id, total_baggages, nonfree_baggages, payment_id } = args;
  const reservation = getReservation(db, reservation_id);
  const user = getUser(db, reservation.user_id);
  const extra = pySub(nonfree_baggages ?? null, reservation.nonfree_baggages);
  const total = pyMul(50, compare(0, extra) >= 0 ? 0 : extra);
  const payment = paymentForUpdate(user, payment_id, total);
  if (payment !== null) reservation.payment_history.push(payment);
  // Stored as sent, unvalidated: a float 2.0 stays a float and changes the DB hash.
  (reservation as { total_baggages: PyValue }).total_baggages = total_baggages ?? null;
  (reservation as { nonfree_baggages: PyValue }).nonfree_baggages = nonfree_baggages ?? null;
  return reservation;
};

export const updateReservationFlights = (db: FlightDB, args: ToolArgs): Reservation => {
  const { reservation_id, cabin, payment_id } = args;
  const converted = modelsIfAllDicts('FlightInfo', FlightInfoSchema, args.flights);
  const reservation = getReservation(db, reservation_id);
  const user = getUser(db, reservation.user_id);
  const passengerCount = reservation.passengers.length;
  let total = 0;
  const flights: ReservationFlight[] = [];
  const infos: FlightInfo[] = 'models' in converted ? converted.models : converted.items.map((item) => noAttribute(item, 'flight_number'));
  for (const info of infos) {
    const kept = reservation.flights.find(
      (f) => f.flight_number === info.flight_number && f.date === info.date && cabin === reservation.cabin,
    );
    if (kept) {
      total += kept.price * passengerCount;
      flights.push(kept);
      continue;
    }
    const flight = getFlight(db, info.flight_number);
    const instance = getFlightInstance(db, info.flight_number, info.date);
    if (instance.status !== 'available') {
      throw new ToolError(`Flight ${info.flight_number} not available on date ${info.date}`);
    }
    if (!dictHas(instance.available_seats, cabin)) throw new ToolError(pyKeyError(cabin));
    if (instance.available_seats[cabin]! < passengerCount) {
      throw new ToolError(`Not enough seats on flight ${info.flight_number}`);
    }
    const price = instance.prices[cabin]!;
    flights.push({ flight_number: info.flight_number, origin: flight.origin, destination: flight.destination, date: info.date, price });
    total += price * passengerCount;
  }
  total -= reservation.flights.reduce((sum, f) => sum + f.price, 0) * passengerCount;
  const payment = paymentForUpdate(user, payment_id, total);
  if (payment !== null) reservation.payment_history.push(payment);
  reservation.flights = flights;
  // Assigned unvalidated, as in the reference.
  (reservation as { cabin: PyValue }).cabin = cabin ?? null;
  return reservation;
};

export const updateReservationPassengers = (db: FlightDB, args: ToolArgs): Reservation => {
  const converted = modelsIfAllDicts('Passenger', PassengerSchema, args.passengers);
  const reservation = getReservation(db, args.reservation_id);
  const passengers = 'models' in converted ? converted.models : converted.raw;
  if (pyLen(passengers) !== reservation.passengers.length) throw new ToolError('Number of passengers does not match');
  reservation.passengers = passengers as Reservation['passengers'];
  return reservation;
};

