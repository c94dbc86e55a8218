// Payments (today: the currency rates the payment page shows).
export { paymentRatesRoutes } from './rates-routes.ts';
