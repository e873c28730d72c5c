// Flight search (reference: AirlineTools._search_direct_flight, search_direct_flight, search_onestop_flight).
import { compareStrings } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import type { DirectFlight, FlightDB } from './data_model.ts';

interface SearchCriteria {
  readonly date: PyValue | undefined;
  readonly origin?: PyValue | undefined;
  readonly destination?: PyValue | undefined;
  readonly leaveAfter?: string;
}

/** Flights (DB order) matching the criteria whose instance on `date` is available, with that day's seats and prices. */
export const searchDirectFlights = (db: FlightDB, { date, origin, destination, leaveAfter }: SearchCriteria): DirectFlight[] => {
  const results: DirectFlight[] = [];
  for (const flight of Object.values(db.flights)) {
    // None (also when the model sends null) matches any airport, as `origin is None or ...` does.
    if (origin !== undefined && origin !== null && flight.origin !== origin) continue;
    if (destination !== undefined && destination !== null && flight.destination !== destination) continue;
    if (!dictHas(flight.dates, date)) continue;
    const instance = flight.dates[date]!;
    if (instance.status !== 'available') continue;
    if (leaveAfter !== undefined && compareStrings(flight.scheduled_departure_time_est, leaveAfter) < 0) continue;
    results.push({
      flight_number: flight.flight_number,
      origin: flight.origin,
      destination: flight.destination,
      status: 'available',
      scheduled_departure_time_est: flight.scheduled_departure_time_est,
      scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
      date: null,
      available_seats: { ...instance.available_seats },
      prices: { ...instance.prices },
    });
  }
  return results;
};

/**
 * One-stop itineraries: a first leg from `origin` on `date`, then a second leg to `destination` leaving no earlier
 * (string comparison) than the first arrives. A "+1" arrival moves the second leg to the next day, written without
 * zero padding (`2024-05-2`), as the reference does — so such connections from May 1–8 never match.
 */
export const searchOnestopFlights = (db: FlightDB, origin: PyValue | undefined, destination: PyValue | undefined, date: PyValue | undefined): DirectFlight[][] => {
  const results: DirectFlight[][] = [];
  for (const first of searchDirectFlights(db, { date, origin })) {
    const day = date as string;
    first.date = day;
    const nextDay = first.scheduled_arrival_time_est.includes('+1')
      ? `2024-05-${Number.parseInt(day.slice(-2), 10) + 1}`
      : day;
    for (const second of searchDirectFlights(db, {
      date: nextDay,
      origin: first.destination,
      destination,
      leaveAfter: first.scheduled_arrival_time_est,
    })) {
      second.date = nextDay;
      results.push([first, second]);
    }
  }
  return results;
};
