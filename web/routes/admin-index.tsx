import { redirect } from 'react-router';

// SPEC §2: /admin is a bare path with no page of its own.
export const loader = () => redirect('/admin/users');
