import { endpoint } from '#server/api/contract.ts'
import { paymentBodies } from '../schemas/inputs.ts'
import { paymentMethod } from '../schemas/outputs.ts'
import { item, list, ok, tags } from './shared.ts'

const P = tags.payments

/** A freelancer's payment methods (the owner only). */
export const paymentEndpoints = {
  // Freelancer payment methods (the owner only).
  paymentAdd: endpoint({
    method: 'POST',
    path: 'freelancers/AddFreelancerPaymentMethod',
    summary:
      'Add a bank account (IBAN checked), a PayPal address or a Stripe connected account (acct_…); the first becomes the default',
    tag: P,
    access: 'user',
    body: paymentBodies.add,
    response: paymentMethod,
  }),
  paymentList: endpoint({
    method: 'GET',
    path: 'freelancers/{id}/GetAllPaymentMethodsForFreelancer',
    summary: "The freelancer's payment methods, masked (only the freelancer may ask)",
    tag: P,
    access: 'user',
    params: item,
    response: list(paymentMethod),
  }),
  paymentDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/DeletePaymentMethod/{id}',
    summary: 'Remove a payment method; another active one becomes the default',
    tag: P,
    access: 'user',
    params: item,
    response: ok,
  }),
  paymentUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/UpdatePaymentMethod/{id}',
    summary: "Change a payment method's details",
    tag: P,
    access: 'user',
    params: item,
    body: paymentBodies.update,
    response: paymentMethod,
  }),
  paymentStatus: endpoint({
    method: 'PUT',
    path: 'freelancers/UpdatePaymentMethodStatus/{id}',
    summary: 'Make a payment method the default, or switch it active or inactive',
    tag: P,
    access: 'user',
    params: item,
    body: paymentBodies.status,
    response: list(paymentMethod),
  }),
}
