// Airline DB models (reference: src/tau2/domains/airline/data_model.py). Field order is pydantic's dump order.
import { z } from 'zod';
import { isPlainDict } from '../../src/core/py/index.ts';
import { PyFloatSchema, PyIntSchema, nullable, pyMap } from '../../src/core/schemas/py-types.ts';

/**
 * A model nested in a model the tools build (Reservation): a non-dict item is pydantic's `model_type` error
 * ("Input should be a valid dictionary or instance of <Model>"), a dict is validated by `shape`.
 */
const nestedModel = <S extends z.ZodType<unknown, unknown>>(modelName: string, shape: S) =>
  z
    .custom<unknown>((v) => isPlainDict(v), {
      message: `Input should be a valid dictionary or instance of ${modelName}`,
      params: { pydanticType: 'model_type' },
    })
    .pipe(shape);

export const FlightTypeSchema = z.enum(['round_trip', 'one_way']);
export const CabinClassSchema = z.enum(['business', 'economy', 'basic_economy']);
export type CabinClass = z.infer<typeof CabinClassSchema>;
export const InsuranceSchema = z.enum(['yes', 'no']);

export const NameSchema = z.object({ first_name: z.string(), last_name: z.string() });

export const AddressSchema = z.object({
  address1: z.string(),
  address2: nullable(z.string()),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});

export const PaymentSchema = z.object({ payment_id: z.string(), amount: PyIntSchema });
export type Payment = z.infer<typeof PaymentSchema>;

export const CreditCardSchema = z.object({
  source: z.literal('credit_card'),
  id: z.string(),
  brand: z.string(),
  last_four: z.string(),
});
export const GiftCardSchema = z.object({ source: z.literal('gift_card'), id: z.string(), amount: PyFloatSchema });
export const CertificateSchema = z.object({ source: z.literal('certificate'), id: z.string(), amount: PyFloatSchema });
export const PaymentMethodSchema = z.union([CreditCardSchema, GiftCardSchema, CertificateSchema]);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

export const PassengerSchema = z.object({ first_name: z.string(), last_name: z.string(), dob: z.string() });
export type Passenger = z.infer<typeof PassengerSchema>;

/** `dict[CabinClass, int]`: seats left or prices by cabin, in the data's key order (which the tools show). */
export const CabinNumbersSchema = z.record(z.string(), PyIntSchema);
export type CabinNumbers = z.infer<typeof CabinNumbersSchema>;

export const FlightDateStatusAvailableSchema = z.object({
  status: z.literal('available'),
  available_seats: CabinNumbersSchema,
  prices: CabinNumbersSchema,
});
export type FlightDateStatusAvailable = z.infer<typeof FlightDateStatusAvailableSchema>;

const estimated = { estimated_departure_time_est: z.string(), estimated_arrival_time_est: z.string() };

export const FlightDateStatusSchema = z.union([
  FlightDateStatusAvailableSchema,
  z.object({ status: z.literal('landed'), actual_departure_time_est: z.string(), actual_arrival_time_est: z.string() }),
  z.object({ status: z.literal('cancelled') }),
  z.object({ status: z.literal('delayed'), ...estimated }),
  z.object({ status: z.literal('flying'), actual_departure_time_est: z.string(), estimated_arrival_time_est: z.string() }),
  z.object({ status: z.literal('on time'), ...estimated }),
]);
export type FlightDateStatus = z.infer<typeof FlightDateStatusSchema>;

export const FlightSchema = z.object({
  flight_number: z.string(),
  origin: z.string(),
  destination: z.string(),
  scheduled_departure_time_est: z.string(),
  scheduled_arrival_time_est: z.string(),
  dates: z.record(z.string(), FlightDateStatusSchema),
});
export type Flight = z.infer<typeof FlightSchema>;

/** A search result: a flight with its availability on one date (`date` is set only for one-stop legs). */
export type DirectFlight = {
  flight_number: string;
  origin: string;
  destination: string;
  status: 'available';
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  date: string | null;
  available_seats: CabinNumbers;
  prices: CabinNumbers;
};

export const ReservationFlightSchema = z.object({
  flight_number: z.string(),
  origin: z.string(),
  destination: z.string(),
  date: z.string(),
  price: PyIntSchema,
});
export type ReservationFlight = z.infer<typeof ReservationFlightSchema>;

export const FlightInfoSchema = z.object({ flight_number: z.string(), date: z.string() });
export type FlightInfo = z.infer<typeof FlightInfoSchema>;

export const UserSchema = z.object({
  user_id: z.string(),
  name: NameSchema,
  address: AddressSchema,
  email: z.string(),
  dob: z.string(),
  payment_methods: z.record(z.string(), PaymentMethodSchema),
  saved_passengers: z.array(PassengerSchema),
  membership: z.enum(['gold', 'silver', 'regular']),
  reservations: z.array(z.string()),
});
export type User = z.infer<typeof UserSchema>;

export const ReservationSchema = z.object({
  reservation_id: z.string(),
  user_id: z.string(),
  origin: z.string(),
  destination: z.string(),
  flight_type: FlightTypeSchema,
  cabin: CabinClassSchema,
  flights: z.array(nestedModel('ReservationFlight', ReservationFlightSchema)),
  passengers: z.array(nestedModel('Passenger', PassengerSchema)),
  payment_history: z.array(nestedModel('Payment', PaymentSchema)),
  created_at: z.string(),
  total_baggages: PyIntSchema,
  nonfree_baggages: PyIntSchema,
  insurance: InsuranceSchema,
  status: nullable(z.literal('cancelled')),
});
export type Reservation = z.infer<typeof ReservationSchema>;

export const FlightDBSchema = z.object({
  flights: z.record(z.string(), FlightSchema),
  users: z.record(z.string(), UserSchema),
  // A Map: one reservation id ("429815") looks like an array index.
  reservations: pyMap(ReservationSchema),
});
export type FlightDB = z.infer<typeof FlightDBSchema>;
