/** What an endpoint's sealed secret is bound to: a sealed secret moved to another row does not open. */
export const endpointSecretContext = (organizationId: string, endpointId: string) => `webhook_endpoint:${organizationId}:${endpointId}`;
