// Uploads: storing, serving and deleting files.
export { FileService } from './service.ts';
export { filesRoutes } from './routes.ts';
export { filePolicy } from './policy.ts';
export { filesModule } from './module.ts';
