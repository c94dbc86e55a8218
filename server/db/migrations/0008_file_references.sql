CREATE INDEX "projects_attachments_idx" ON "projects" USING gin ("attachments");--> statement-breakpoint
CREATE INDEX "services_images_idx" ON "services" USING gin ("images");--> statement-breakpoint
CREATE INDEX "messages_files_idx" ON "messages" USING gin ("files");--> statement-breakpoint
CREATE INDEX "users_avatar_idx" ON "users" USING btree ("avatar") WHERE avatar is not null;