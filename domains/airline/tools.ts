// Airline agent tools in the reference's registration order, with their tags
// (reference: src/tau2/domains/airline/tools.py; schemas in tool_schemas.ts).
import { pyStr } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import { calculate } from '../../src/core/environment/calculate.ts';
import { transferToHumanAgents } from '../../src/core/environment/common-tools.ts';
import { CertificateSchema } from './data_model.ts';
import type { FlightDB } from './data_model.ts';
import { bookReservation } from './booking.ts';
import { getFlightInstance, getReservation, getUser } from './lookups.ts';
import {
  cancelReservation,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from './reservation_updates.ts';
import { searchDirectFlights, searchOnestopFlights } from './search.ts';
import { AIRLINE_TOOL_SCHEMAS as S } from './tool_schemas.ts';

const AIRPORTS: readonly [string, string][] = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

/** Ids tried, in order, for a new certificate (the first one the user does not hold). */
const NEW_CERTIFICATE_IDS = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'] as const;

export const airlineTools = defineToolkit<FlightDB>({
  className: 'AirlineTools',
  tools: {
    book_reservation: { type: 'write', ...S.book_reservation, run: bookReservation },
    calculate,
    cancel_reservation: { type: 'write', ...S.cancel_reservation, run: cancelReservation },
    get_reservation_details: {
      type: 'read',
      ...S.get_reservation_details,
      run: (db, { reservation_id }) => getReservation(db, reservation_id),
    },
    get_user_details: { type: 'read', ...S.get_user_details, run: (db, { user_id }) => getUser(db, user_id) },
    list_all_airports: {
      type: 'read',
      ...S.list_all_airports,
      run: () => AIRPORTS.map(([iata, city]) => ({ iata, city })),
    },
    search_direct_flight: {
      type: 'read',
      ...S.search_direct_flight,
      run: (db, { origin, destination, date }) => searchDirectFlights(db, { date, origin, destination }),
    },
    search_onestop_flight: {
      type: 'read',
      ...S.search_onestop_flight,
      run: (db, { origin, destination, date }) => searchOnestopFlights(db, origin, destination, date),
    },
    send_certificate: {
      type: 'write',
      ...S.send_certificate,
      run: (db, { user_id, amount }) => {
        const user = getUser(db, user_id);
        const id = NEW_CERTIFICATE_IDS.find((candidate) => !Object.hasOwn(user.payment_methods, candidate));
        if (id === undefined) throw new ToolError('Too many certificates');
        user.payment_methods[id] = constructModel('Certificate', CertificateSchema, { id, amount, source: 'certificate' });
        // The message shows the argument as sent (`100` or `100.0`), not the stored float.
        return `Certificate ${id} added to user ${pyStr(user_id)} with amount ${pyStr(amount)}.`;
      },
    },
    transfer_to_human_agents: transferToHumanAgents,
    update_reservation_baggages: { type: 'write', ...S.update_reservation_baggages, run: updateReservationBaggages },
    update_reservation_flights: { type: 'write', ...S.update_reservation_flights, run: updateReservationFlights },
    update_reservation_passengers: {
      type: 'write',
      ...S.update_reservation_passengers,
      run: updateReservationPassengers,
    },
    get_flight_status: {
      type: 'read',
      ...S.get_flight_status,
      run: (db, { flight_number, date }) => getFlightInstance(db, flight_number, date).status,
    },
  },
  functions: {},
});

