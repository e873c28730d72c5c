// book_reservation: every check runs before anything is written, in the reference's order
// (reference: AirlineTools.book_reservation).
import { PyFloat, pyEquals, pyStr, pyTypeName } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import type { ToolArgs } from '../../src/core/environment/toolkit.ts';
import { FlightInfoSchema, PassengerSchema, PaymentSchema, ReservationSchema } from './data_model.ts';
import type { FlightDB, FlightDateStatusAvailable, FlightInfo, Payment, Reservation } from './data_model.ts';
import { getFlight, getFlightInstance, getUser } from './lookups.ts';
import { modelsIfAllDicts, noAttribute, pyAdd, pyKeyError, pyLen, pyMul } from '../../src/core/environment/python-args.ts';

/** The reference's "now" for new reservations. */
export const NOW = '2024-05-15T15:00:00';
const NEW_RESERVATION_IDS = ['HATHAT', 'HATHAU', 'HATHAV'] as const;

const newReservationId = (db: FlightDB): string => {
  const id = NEW_RESERVATION_IDS.find((candidate) => !db.reservations.has(candidate));
  if (id === undefined) throw new ToolError('Too many reservations');
  return id;
};

/** Converted models, or the raw items (which fail at the first attribute the tool reads). */
const itemsOf = <T>(converted: { models: T[] } | { items: PyValue[] }, attribute: string): T[] =>
  'models' in converted ? converted.models : converted.items.map((item) => noAttribute(item, attribute));

/** `total_price += 50 * nonfree_baggages` on the raw argument: a str or list is repeated, then cannot be added. */
const addBagFee = (total: PyValue, nonfreeBaggages: PyValue): PyValue => {
  if (typeof nonfreeBaggages === 'string' || Array.isArray(nonfreeBaggages)) {
    throw new ToolError(`unsupported operand type(s) for +=: '${pyTypeName(total)}' and '${pyTypeName(nonfreeBaggages)}'`);
  }
  return pyAdd(total, pyMul(50, nonfreeBaggages));
};

export const bookReservation = (db: FlightDB, args: ToolArgs): Reservation => {
  const { user_id, origin, destination, flight_type, cabin, total_baggages, nonfree_baggages, insurance } = args;
  const flights = modelsIfAllDicts('FlightInfo', FlightInfoSchema, args.flights);
  const passengers = modelsIfAllDicts('Passenger', PassengerSchema, args.passengers);
  const payments = modelsIfAllDicts('Payment', PaymentSchema, args.payment_methods);
  const user = getUser(db, user_id);
  const reservationId = newReservationId(db);
  const passengerList = 'models' in passengers ? passengers.models : passengers.raw;
  // Validating copies the passengers and payments, as the reference's deepcopy does.
  const reservation = constructModel('Reservation', ReservationSchema, {
    reservation_id: reservationId,
    user_id,
    origin,
    destination,
    flight_type,
    cabin,
    flights: [],
    passengers: passengerList,
    payment_history: 'models' in payments ? payments.models : payments.raw,
    created_at: NOW,
    total_baggages,
    nonfree_baggages,
    insurance,
  });
  const seatsNeeded = pyLen(passengerList);
  const cabinClass = reservation.cabin;

  let totalPrice: PyValue = 0;
  const bookedDates: FlightDateStatusAvailable[] = [];
  for (const info of itemsOf<FlightInfo>(flights, 'flight_number')) {
    const flight = getFlight(db, info.flight_number);
    const instance = getFlightInstance(db, info.flight_number, info.date);
    if (instance.status !== 'available') {
      throw new ToolError(`Flight ${info.flight_number} not available on date ${info.date}`);
    }
    if (instance.available_seats[cabinClass]! < seatsNeeded) {
      throw new ToolError(`Not enough seats on flight ${info.flight_number}`);
    }
    const price = instance.prices[cabinClass]!;
    reservation.flights.push({
      flight_number: info.flight_number,
      origin: flight.origin,
      destination: flight.destination,
      date: info.date,
      price,
    });
    bookedDates.push(instance);
    totalPrice = pyAdd(totalPrice, price * seatsNeeded);
  }
  if (insurance === 'yes') totalPrice = pyAdd(totalPrice, 30 * seatsNeeded);
  totalPrice = addBagFee(totalPrice, nonfree_baggages ?? null);

  const paymentList = itemsOf<Payment>(payments, 'payment_id');
  for (const { payment_id, amount } of paymentList) {
    if (!dictHas(user.payment_methods, payment_id)) throw new ToolError(`Payment method ${payment_id} not found`);
    const method = user.payment_methods[payment_id]!;
    if (method.source !== 'credit_card' && method.amount.value < amount) {
      throw new ToolError(`Not enough balance in payment method ${payment_id}`);
    }
  }
  const totalPayment = paymentList.reduce((sum, p) => sum + p.amount, 0);
  if (!pyEquals(totalPayment, totalPrice)) {
    throw new ToolError(
      `Payment amount does not add up, total price is ${pyStr(totalPrice)}, but paid ${pyStr(totalPayment)}`,
    );
  }

  for (const { payment_id, amount } of paymentList) {
    // A certificate listed twice is gone the second time: KeyError, with the earlier payments applied.
    if (!dictHas(user.payment_methods, payment_id)) throw new ToolError(pyKeyError(payment_id));
    const method = user.payment_methods[payment_id]!;
    if (method.source === 'gift_card') method.amount = new PyFloat(method.amount.value - amount);
    else if (method.source === 'certificate') delete user.payment_methods[payment_id];
  }
  for (const instance of bookedDates) instance.available_seats[cabinClass] = instance.available_seats[cabinClass]! - seatsNeeded;
  db.reservations.set(reservationId, reservation);
  user.reservations.push(reservationId);
  return reservation;
};
