import { useEffect, useState } from 'react';
import type { Service } from '#contract/catalog';
import { api } from '../../lib/api.ts';
import { useShell } from '../../lib/use-shell.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { servicePath } from '../catalog/index.ts';
import { servicePrice } from '../items/index.ts';

// The service a direct chat is about (ADR 046): a chat opened by «Написать продавцу» on a service's page shows
// which service it is, before the first message and after.

/** A small card: the service's title and price, a link to its page. Nothing while loading, or if it is gone. */
export function ChatServiceCard({ id }: { id: string }) {
  const { catalogue } = useShell();
  const [service, setService] = useState<Service | null>(null);
  useEffect(() => {
    // Keyed by the service's id where it is used: a new id is a new card, so nothing to reset here.
    let live = true;
    api.read('services.get', { params: { id } }).then(
      (answer) => live && setService(answer.result),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (!service) return null;
  return (
    <div className="chat-service" data-testid="chat-service">
      <span className="chat-service__label">Услуга:</span>{' '}
      <AppLink to={servicePath(catalogue, service)} className="chat-service__title">
        {service.title}
      </AppLink>{' '}
      <span className="chat-service__price">{servicePrice(service)}</span>
    </div>
  );
}
