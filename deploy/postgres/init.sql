-- One database per service that owns data: services never share a database.
CREATE DATABASE standards;
CREATE DATABASE identity;
