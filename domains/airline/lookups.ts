// DB lookups shared by the airline tools, with the reference's "not found" texts (AirlineTools._get_*).
import { pyStr } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import type { Flight, FlightDB, FlightDateStatus, Reservation, User } from './data_model.ts';

export const getUser = (db: FlightDB, userId: PyValue | undefined): User => {
  if (!dictHas(db.users, userId)) throw new ToolError(`User ${pyStr(userId)} not found`);
  return db.users[userId]!;
};

export const getReservation = (db: FlightDB, reservationId: PyValue | undefined): Reservation => {
  if (!dictHas(db.reservations, reservationId)) throw new ToolError(`Reservation ${pyStr(reservationId)} not found`);
  return db.reservations.get(reservationId)!;
};

export const getFlight = (db: FlightDB, flightNumber: PyValue | undefined): Flight => {
  if (!dictHas(db.flights, flightNumber)) throw new ToolError(`Flight ${pyStr(flightNumber)} not found`);
  return db.flights[flightNumber]!;
};

export const getFlightInstance = (
  db: FlightDB,
  flightNumber: PyValue | undefined,
  date: PyValue | undefined,
): FlightDateStatus => {
  const flight = getFlight(db, flightNumber);
  if (!dictHas(flight.dates, date)) throw new ToolError(`Flight ${pyStr(flightNumber)} not found on date ${pyStr(date)}`);
  return flight.dates[date]!;
};
