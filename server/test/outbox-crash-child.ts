/**
 * A server that commits a letter to the outbox and then hangs without delivering it, for
 * server/platform/crash.db.test.ts to kill with SIGKILL: the state of a server killed between a commit and its
 * dispatch. Its dispatcher is left stopped so that nothing is delivered before the kill.
 */
import { loadEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { startServer } from '../server.ts';
import { systemActor } from '../platform/actor.ts';

const env = loadEnv();
const server = await startServer(env, createLogger(env), { dispatch: false });
await server.app.services.platform.withTx(systemActor('crash-test'), async ({ outbox }) => {
  outbox.mail(process.env.CRASH_TEST_TO ?? 'crash@example.org', {
    subject: process.env.CRASH_TEST_SUBJECT ?? 'Письмо',
    text: 'Письмо, записанное перед сбоем.',
    html: '<p>Письмо, записанное перед сбоем.</p>',
  });
});
console.log('committed');
// Waits to be killed.
setInterval(() => {}, 60_000);
